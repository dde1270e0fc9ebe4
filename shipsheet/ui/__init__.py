"""The Qt layer: windows, views and dialogs. Holds no rule: it calls the model."""
