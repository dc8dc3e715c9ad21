# sglang_router as the srt-operator emulated GPU host has it installed: its modules are emulated.
__version__ = "0.3.2+emulated"
