-- The parts a node's digest is made of (module, inputs, providers, schema), so that a dry-run can say why a
-- resource changes and a change of the output schema or of a provider's source runs it again. Null for
-- nodes and resources recorded before; those compare by their whole digest as before.

alter table deployment_node add column digest_parts jsonb;
alter table active_resource add column digest_parts jsonb;
