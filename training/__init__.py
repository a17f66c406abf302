"""Self-play training (MaskablePPO from sb3-contrib on torch); needs the ``train`` extra."""
