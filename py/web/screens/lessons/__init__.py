"""Learn to play: the lessons and drills screen (imported on first use)."""
