"""One dialog per violation kind (RULES.md section 9); ``VIOLATION_MENU`` numbers them 1-9, 0."""

from __future__ import annotations

from referee_desk.ui.dialogs.violations.base import ViolationDialog
from referee_desk.ui.dialogs.violations.committee import (
    CommitteeDecisionDialog,
    CommitteeRulingDialog,
)
from referee_desk.ui.dialogs.violations.conduct import ConductWarningDialog
from referee_desk.ui.dialogs.violations.false_bid import FalseBidDialog
from referee_desk.ui.dialogs.violations.forfeit import ForfeitDialog
from referee_desk.ui.dialogs.violations.open_bid import OpenBidDialog
from referee_desk.ui.dialogs.violations.overrun import OverrunDialog
from referee_desk.ui.dialogs.violations.revoke import RevokeDialog
from referee_desk.ui.dialogs.violations.wrong_dealer import WrongDealerDialog
from referee_desk.ui.dialogs.violations.wrong_play import WrongPlayDialog

#: Menu key → dialog class, in the order of DESK.md (1 出错牌 … 9 仲裁, 0 committee decision).
VIOLATION_MENU: tuple[tuple[str, type[ViolationDialog]], ...] = (
    ("1", WrongPlayDialog),
    ("2", RevokeDialog),
    ("3", OpenBidDialog),
    ("4", FalseBidDialog),
    ("5", WrongDealerDialog),
    ("6", ConductWarningDialog),
    ("7", OverrunDialog),
    ("8", ForfeitDialog),
    ("9", CommitteeRulingDialog),
    ("0", CommitteeDecisionDialog),
)

__all__ = [
    "VIOLATION_MENU",
    "CommitteeDecisionDialog",
    "CommitteeRulingDialog",
    "ConductWarningDialog",
    "FalseBidDialog",
    "ForfeitDialog",
    "OpenBidDialog",
    "OverrunDialog",
    "RevokeDialog",
    "ViolationDialog",
    "WrongDealerDialog",
    "WrongPlayDialog",
]
