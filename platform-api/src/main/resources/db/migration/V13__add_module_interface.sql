-- What a module version's code declares (variables and outputs), read when it is saved; null for versions
-- saved before modules were checked.

alter table module_version add column module_interface jsonb;
