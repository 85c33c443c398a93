"""sandbox.render — pure drawing onto pygame Surfaces (no window needed):
charts now; game renderers and tree views join them. Renderers only read."""
