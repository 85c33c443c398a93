"""Game-theoretic analysis: exploitability (NashConv) of strategies."""
