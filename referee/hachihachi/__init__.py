"""Hachi-hachi (八八, "Eighty-eight"): round settlement and game ledger in kan and mon.

Pure core: imports nothing outside the standard library and ``referee``'s core modules.
"""
