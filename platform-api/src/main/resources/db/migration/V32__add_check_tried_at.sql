-- When the check scheduler last tried to start a scheduled check of the environment (started, declined at the
-- organization's limit, or failed): due environments are taken least recently tried first, so that ones whose check
-- cannot start do not keep the others from being looked at.
alter table environment add column check_tried_at timestamptz;
