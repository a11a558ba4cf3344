"""The table of one match: the scene a frame is drawn from, where the seats sit, the renderers by
region and the patch between frames. Pure: no browser."""
