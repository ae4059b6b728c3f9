"""One dialog per violation kind (RULES.md section 9); ``VIOLATION_MENU`` numbers them 1-9, 0."""

from __future__ import annotations

from referee_desk.ui.dialogs.violations.base import ViolationDialog
from referee_desk.ui.dialogs.violations.committee import (
    CommitteeDecisionDialog,
    CommitteeRulingDialog,
)
from referee_desk.ui.dialogs.violations.concealment import ConcealmentDialog
from referee_desk.ui.dialogs.violations.conduct import ConductWarningDialog
from referee_desk.ui.dialogs.violations.false_bid import FalseBidDialog
from referee_desk.ui.dialogs.violations.forfeit import ForfeitDialog
from referee_desk.ui.dialogs.violations.kitty import KittyDialog
from referee_desk.ui.dialogs.violations.open_bid import OpenBidDialog
from referee_desk.ui.dialogs.violations.overrun import OverrunDialog
from referee_desk.ui.dialogs.violations.revoke import RevokeDialog
from referee_desk.ui.dialogs.violations.throw_failed import ThrowFailedDialog
from referee_desk.ui.dialogs.violations.wrong_dealer import WrongDealerDialog
from referee_desk.ui.dialogs.violations.wrong_play import WrongPlayDialog

#: Menu key → dialog class, in the order of DESK.md (1 出错牌 … 9 仲裁, 0 committee decision).
#: Two classes share a key where the presets differ (``offered``): 2 is 劳改 or, in
#: three-deck, 藏张 (12.8); 3 is 明叫 or, where throws exist, 甩牌失败 (12.3, 12.4).
VIOLATION_MENU: tuple[tuple[str, type[ViolationDialog]], ...] = (
    ("1", WrongPlayDialog),
    ("2", RevokeDialog),
    ("2", ConcealmentDialog),
    ("3", OpenBidDialog),
    ("3", ThrowFailedDialog),
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
    "ConcealmentDialog",
    "ConductWarningDialog",
    "FalseBidDialog",
    "ForfeitDialog",
    "KittyDialog",
    "OpenBidDialog",
    "OverrunDialog",
    "RevokeDialog",
    "ThrowFailedDialog",
    "ViolationDialog",
    "WrongDealerDialog",
    "WrongPlayDialog",
]
