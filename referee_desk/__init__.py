"""Referee Desk (裁判台): a desk for Guilin four-deck Tractor tournaments."""

__version__ = "0.1.0"
