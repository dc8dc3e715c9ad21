# sglang as the srt-operator emulated GPU host has it installed: its modules are emulated.
__version__ = "0.5.18+emulated"
