package dev.polystack.platform.organization;

import java.time.Instant;

/** An organization on the wire. */
public record OrganizationView(String id, String name, Instant createdAt, Instant updatedAt, long version) {

    static OrganizationView of(Organization org) {
        return new OrganizationView(org.slug(), org.name(), org.createdAt(), org.updatedAt(), org.version());
    }
}
