# stub written by the srt-operator emulator's pip
