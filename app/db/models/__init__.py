from app.db.models.problem_bank import ProblemBankEntry
from app.db.models.provider_fitness import ProviderFitness
from app.db.models.scan import Scan
from app.db.models.solution import Solution
from app.db.models.verification import VerificationRecord

__all__ = ["ProblemBankEntry", "ProviderFitness", "Scan", "Solution", "VerificationRecord"]
