"""The lab: run named studies of many games (on all cores or on Ray), measure, and report.

``tavern lab run STUDY`` plays a study's games into ``lab-out/STUDY`` (resumable), ``tavern lab
report`` turns every study folder into one HTML page with plots and CSVs. The engine never
imports the lab; the lab plays through the engine's public calls and the bots.
"""

from taverntable.lab.core.config import LabError, StudyConfig
from taverntable.lab.core.studies import STUDIES, Study, get_study

__all__ = ["STUDIES", "LabError", "Study", "StudyConfig", "get_study"]
