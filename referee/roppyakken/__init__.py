"""Roppyakken (六百間, "Six Hundred") and its family: rules, yaku, teyaku, fuke, rounds, games.

Pure core: imports nothing outside the standard library and ``referee``'s core modules.
"""
