"""A version's process (the original, or the new version): imports the code under check and answers the
judge's requests, each call in a fresh child. Everything here runs beside untrusted code."""
