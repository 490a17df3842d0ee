"""photos read twice and corrected (issue 24): scans.second_reading, scans.corrects_scan_id

second_reading: what a model that reads images read off the photo, beside the OCR's reading.
corrects_scan_id: the photo scan a text scan corrects; set NULL when that scan is erased.

On SQLite the reference is a plain column: adding a foreign key there takes a rebuild of
`scans`, and dropping the old table under foreign keys (on in every connection) would cascade
to its solutions; nor could a downgrade drop such a column. Erasing a scan empties the
references to it explicitly on every backend (ScanRepository.erase_scan).

Revision ID: 0009_scan_readings
Revises: 0008_outbox_acknowledged
Create Date: 2026-11-24 10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_scan_readings"
down_revision: str | None = "0008_outbox_acknowledged"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FOREIGN_KEY = "fk_scans_corrects_scan_id_scans"
INDEX = "ix_scans_corrects_scan_id"


def upgrade() -> None:
    op.add_column("scans", sa.Column("second_reading", sa.Text()))
    op.add_column("scans", sa.Column("corrects_scan_id", sa.Uuid()))
    op.create_index(INDEX, "scans", ["corrects_scan_id"])
    if op.get_bind().dialect.name != "sqlite":
        op.create_foreign_key(
            FOREIGN_KEY, "scans", "scans", ["corrects_scan_id"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(FOREIGN_KEY, "scans", type_="foreignkey")
    op.drop_index(INDEX, table_name="scans")
    # In place on SQLite too (3.35+: DROP COLUMN), never a rebuild of `scans` (see above).
    op.execute("ALTER TABLE scans DROP COLUMN corrects_scan_id")
    op.execute("ALTER TABLE scans DROP COLUMN second_reading")
