"""The desk's dialogs, one per module; each is a compiled Designer form used by composition."""
