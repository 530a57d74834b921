-- Why the environment's scheduled check could not start at the scheduler's last look that tried to start it, and
-- when (no secrets: a log reference); cleared when one of its scheduled checks starts. Instance administrators see
-- these in the engine's diagnostics instead of a WARN line at every look.
alter table environment add column check_failed_reason text, add column check_failed_at timestamptz;
create index environment_check_failed_idx on environment (check_failed_at) where check_failed_reason is not null;
