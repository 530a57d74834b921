-- A resource applied by a reconcile deployment (limited to the drifted resources) had its dependencies recorded from
-- that deployment's edges, which exist only between the nodes it held: it lost those on resources that had not drifted,
-- so a later destroy could remove it together with them. What a resource depends on is in its spec (the module's
-- dependencies and the resources its params refer to): every active resource's list is written again from it, in the
-- order the engine writes it (by id, type, class, then alias).
update active_resource a
set dependencies = repaired.dependencies
from (select r.id,
             coalesce(jsonb_agg(jsonb_build_object('type', d.value ->> 'type', 'class', d.value ->> 'resourceClass',
                                                   'id', d.value ->> 'id', 'alias', d.key)
                                order by d.value ->> 'id' collate "C", d.value ->> 'type' collate "C",
                                         d.value ->> 'resourceClass' collate "C", d.key collate "C")
                      filter (where d.key is not null), '[]'::jsonb) as dependencies
      from active_resource r
               left join lateral (select key, value
                                  from jsonb_each(case jsonb_typeof(r.spec -> 'dependencies')
                                                      when 'object' then r.spec -> 'dependencies'
                                                      else '{}'::jsonb end)
                                  union all
                                  select key, value
                                  from jsonb_each(case jsonb_typeof(r.spec -> 'manifestReferences')
                                                      when 'object' then r.spec -> 'manifestReferences'
                                                      else '{}'::jsonb end)) d on true
      group by r.id) repaired
where a.id = repaired.id
  and a.dependencies is distinct from repaired.dependencies;
