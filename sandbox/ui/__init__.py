"""sandbox.ui — widgets that post events (never call game code)."""
from .events import UI_EVENT, is_ui, post_change, post_click
from .widgets import Button, Label, Picker, Readout, Slider, Toggle, Widget, WidgetGroup

__all__ = ["Button", "Label", "Picker", "Readout", "Slider", "Toggle", "UI_EVENT", "Widget",
           "WidgetGroup", "is_ui", "post_change", "post_click"]
