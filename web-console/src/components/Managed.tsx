/** What configuration as code says about an object: what manages it, and whether deleting it is refused. */
export function Managed({ item }: { item: { managed_by?: string | null; protected?: boolean } }) {
  if (!item.managed_by && !item.protected) return null
  return (
    <span className="managed">
      {item.protected && (
        <span className="badge calm" title="Deleting it is refused until its protection is lifted">
          protected
        </span>
      )}
      {item.managed_by && (
        <span
          className="badge calm"
          title={`Kept in configuration as code by ${item.managed_by}: its next apply overwrites changes made here`}>
          managed by {item.managed_by}
        </span>
      )}
    </span>
  )
}
