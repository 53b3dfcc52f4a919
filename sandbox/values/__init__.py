"""Values as the judge sees them: a call's outcome encoded as JSON nodes in the version's process,
validated and compared in the judge's, and rendered as short text for its messages."""
