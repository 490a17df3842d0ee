from app.db.models.api_key import ApiKey
from app.db.models.check import Check, CheckVerdict
from app.db.models.idempotency import IdempotencyKey
from app.db.models.outbox import OutboxMessage
from app.db.models.problem_bank import ProblemBankEntry
from app.db.models.provider_fitness import ProviderFitness
from app.db.models.scan import Scan
from app.db.models.scan_extras import ScanEvent, ScanInput
from app.db.models.signing_secret import SigningSecret
from app.db.models.solution import Solution
from app.db.models.verification import VerificationRecord

__all__ = [
    "ApiKey",
    "Check",
    "CheckVerdict",
    "IdempotencyKey",
    "OutboxMessage",
    "ProblemBankEntry",
    "ProviderFitness",
    "Scan",
    "ScanEvent",
    "ScanInput",
    "SigningSecret",
    "Solution",
    "VerificationRecord",
]
