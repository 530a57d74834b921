-- A gated deployment that ends before anyone decided says how: cancelled while it planned or waited, or its plan failed.
alter table deployment drop constraint deployment_approval_state_check,
    add constraint deployment_approval_state_check check (approval_state is null
        or approval_state in ('planning', 'awaiting', 'approved', 'not-needed', 'rejected', 'expired', 'stale', 'cancelled',
                              'plan-failed'));
