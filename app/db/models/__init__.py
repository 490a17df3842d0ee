from app.db.models.api_key import ApiKey
from app.db.models.outbox import OutboxMessage
from app.db.models.problem_bank import ProblemBankEntry
from app.db.models.provider_fitness import ProviderFitness
from app.db.models.scan import Scan
from app.db.models.solution import Solution
from app.db.models.verification import VerificationRecord

__all__ = [
    "ApiKey",
    "OutboxMessage",
    "ProblemBankEntry",
    "ProviderFitness",
    "Scan",
    "Solution",
    "VerificationRecord",
]
