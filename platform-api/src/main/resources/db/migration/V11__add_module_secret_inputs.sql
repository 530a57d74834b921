-- Module inputs marked secret: sealed with AES-GCM, write-only through the API.

alter table module_version add column secret_inputs bytea;
