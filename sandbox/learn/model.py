"""The network in JAX: the same pass as the C core's (sbx.h section 7), its
losses and one optax training step. Imported only to train (JAX is the
optional `learn` extra); the C core runs the net everywhere else.

Losses, as Student of Games trains its value-and-policy network: a Huber
loss on the values (where the record has a target) and the cross-entropy
of the policy target against the net's softmax over the legal moves (where
the record has a policy for that player), reported as the KL divergence
(the cross-entropy less the target's entropy: the same gradient, 0 at a
perfect fit)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from .netfile import NetSpec, tensor_shapes

HIGHEST = jax.lax.Precision.HIGHEST   # float32 sums, as C's


def init_params(spec: NetSpec, seed: int) -> dict[str, jax.Array]:
    """He-scaled normal weights, zero biases, from jax.random (seeded)."""
    key = jax.random.PRNGKey(seed)
    params = {}
    for name, shape in tensor_shapes(spec):
        key, sub = jax.random.split(key)
        if name.endswith("_b"):
            params[name] = jnp.zeros(shape, jnp.float32)
        else:
            fan_in = int(np.prod(shape[1:])) if name.startswith("conv") else shape[0]
            params[name] = jax.random.normal(sub, shape, jnp.float32) * np.sqrt(2.0 / max(1, fan_in))
    return params


def forward(spec: NetSpec, params: dict[str, Any], x: jax.Array) -> tuple[jax.Array, jax.Array]:
    """x [n, input_size] -> values [n, players, value_slots], logits [n, players, moves]."""
    a = spec.arch
    n = x.shape[0]
    pf = spec.planes * spec.height * spec.width
    h = x
    if a.conv_layers:
        c = x[:, :pf].reshape(n, spec.planes, spec.height, spec.width)
        for i in range(a.conv_layers):
            c = jax.lax.conv_general_dilated(c, params[f"conv{i}_w"], (1, 1), "SAME",
                                             dimension_numbers=("NCHW", "OIHW", "NCHW"),
                                             precision=HIGHEST)
            c = jax.nn.relu(c + params[f"conv{i}_b"][None, :, None, None])
        h = jnp.concatenate([c.reshape(n, -1), x[:, pf:]], axis=1)
    for i in range(a.dense_layers):
        h = jax.nn.relu(jnp.dot(h, params[f"dense{i}_w"], precision=HIGHEST) + params[f"dense{i}_b"])
    values = jnp.dot(h, params["value_w"], precision=HIGHEST) + params["value_b"]
    logits = jnp.dot(h, params["policy_w"], precision=HIGHEST) + params["policy_b"]
    return (values.reshape(n, spec.players, spec.value_slots),
            logits.reshape(n, spec.players, spec.moves))


def losses(spec: NetSpec, params: dict[str, Any], batch: dict[str, jax.Array],
           outcome_weight: float) -> tuple[jax.Array, jax.Array]:
    """(value loss, policy loss), each a mean over the targets present.

    The value target mixes the search's value with the game's outcome
    (Student of Games' TD(1) target): (1 - w) * search + w * outcome, where
    a record has both; the search's value alone where the outcome is NaN
    (a query)."""
    x = jnp.concatenate([batch["features"], batch["ranges"].reshape(batch["ranges"].shape[0], -1)],
                        axis=1)
    values, logits = forward(spec, params, x)
    outcome = batch["outcome"][:, :, None]
    has_outcome = jnp.isfinite(outcome)
    target = jnp.where(has_outcome,
                       (1.0 - outcome_weight) * batch["value"]
                       + outcome_weight * jnp.where(has_outcome, outcome, 0.0),
                       batch["value"])
    vmask = batch["value_mask"]
    vloss = jnp.sum(optax.huber_loss(values, target) * vmask) / jnp.maximum(vmask.sum(), 1.0)
    legal = batch["legal"] > 0
    masked = jnp.where(legal, logits, -1e9)
    logp = jax.nn.log_softmax(masked, axis=-1)
    # KL(target || net): the cross-entropy less the target's own entropy
    # (same gradient), so a perfect fit reads 0
    t = batch["policy"]
    tlogt = jnp.where(t > 0, t * jnp.log(jnp.where(t > 0, t, 1.0)), 0.0)
    kl = jnp.sum(jnp.where(legal, tlogt - t * logp, 0.0), axis=-1)
    pmask = batch["policy_mask"]
    ploss = jnp.sum(kl * pmask) / jnp.maximum(pmask.sum(), 1.0)
    return vloss, ploss


def make_step(spec: NetSpec, optimizer: optax.GradientTransformation, outcome_weight: float):
    """A jitted step: (params, opt_state, batch) -> (params, opt_state,
    (value loss, policy loss))."""

    def total(params, batch):
        v, p = losses(spec, params, batch, outcome_weight)
        return v + p, (v, p)

    @jax.jit
    def step(params, opt_state, batch):
        (_, parts), grads = jax.value_and_grad(total, has_aux=True)(params, batch)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, parts

    return step


def to_numpy(params: dict[str, Any]) -> dict[str, np.ndarray]:
    return {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
