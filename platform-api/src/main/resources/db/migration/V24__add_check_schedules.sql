-- When checks run on their own (issue 15): per environment type, overridable per environment.
-- {"interval_minutes": 60, "window": "22:00-06:00", "refresh_only": false}; null on an environment inherits
-- its type's, and an interval of 0 (or none) is off.
alter table env_type add column checks jsonb;
alter table environment add column checks jsonb;
