"""sandbox.learn — value-and-policy networks for the C core's games:
the network file (netfile, numpy only), the replay buffer (buffer),
self-play positions (selfplay), and training with JAX and optax (model,
train; the optional `learn` extra). docs/learning.md is the user's guide."""
