"""Learn to play: the lessons (stages of small levels checked by the engine) and practice drills.

- :mod:`.stages` — the eleven stages, data only;
- :mod:`.tasks` — what a level asks, the engine's answer and the explanations (:class:`LevelRun`);
- :mod:`.positions` — real positions of the play for go, last card and his heels;
- :mod:`.drills` — counting, discard and pegging drills drawn from a seed;
- :mod:`.progress` — stars and drill records as plain data for storage.
"""

from .progress import DrillStats, Progress
from .stages import STAGES, Level, Stage, stage_of
from .tasks import Feedback, LevelRun, Task, answer_kind, expected

__all__ = ["STAGES", "Stage", "Level", "stage_of", "Task", "LevelRun", "Feedback", "answer_kind", "expected",
           "Progress", "DrillStats"]
