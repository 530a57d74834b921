-- When the check scheduler last looked at the environment while it was due (its check started, waited for its window
-- or its organization's limit, or failed): due environments are taken least recently looked at first, so that ones
-- whose check cannot start yet do not keep the others from being looked at.
alter table environment add column check_tried_at timestamptz;
