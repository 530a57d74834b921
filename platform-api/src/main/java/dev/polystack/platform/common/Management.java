package dev.polystack.platform.common;

import dev.polystack.platform.common.problem.PlatformException;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/**
 * Who manages an object and whether it may be deleted: configuration as code marks what it manages,
 * so that a sync deletes only its own objects, and a protected object refuses every delete until its
 * protection is lifted. Immutable: a change replaces the value.
 */
@Embeddable
public class Management {

    @Column(name = "managed_by")
    private String managedBy;

    @Column(name = "is_protected", nullable = false)
    private boolean protect;

    protected Management() {}

    private Management(String managedBy, boolean protect) {
        this.managedBy = managedBy;
        this.protect = protect;
    }

    /** Neither managed nor protected. */
    public static Management none() {
        return new Management(null, false);
    }

    /** The management a create asks for; absent values mean unmanaged and unprotected. */
    public static Management of(String managedBy, Boolean protect) {
        return none().with(managedBy, protect);
    }

    /** This management changed by an update: an absent value keeps the current one, an empty {@code managed_by} clears it. */
    public Management with(String managedBy, Boolean protect) {
        String manager = managedBy == null ? this.managedBy : managedBy.isEmpty() ? null : managedBy;
        return new Management(manager, protect == null ? this.protect : protect);
    }

    public String managedBy() {
        return managedBy;
    }

    public boolean isProtected() {
        return protect;
    }

    /** Refuses to delete a protected object, naming it (e.g. "module `postgres`"). */
    public void requireDeletable(String what) {
        if (protect) {
            throw PlatformException.conflict(what + " is protected; set `protected` to false before deleting it");
        }
    }
}
