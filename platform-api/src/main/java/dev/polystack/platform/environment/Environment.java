package dev.polystack.platform.environment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.VersionedEntity;
import dev.polystack.platform.envtype.CheckSchedule;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.Mutability;
import org.hibernate.type.SqlTypes;
import org.hibernate.type.descriptor.java.Immutability;

import java.time.Instant;
import java.util.UUID;

/** One deployment target of a project, such as its production. */
@Entity
@Table(name = "environment")
public class Environment extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(name = "project_id", nullable = false, updatable = false)
    private UUID projectId;

    @Column(nullable = false, updatable = false)
    private String slug;

    @Column(name = "env_type_id", nullable = false)
    private UUID envTypeId;

    @Convert(converter = EnvironmentStatus.ColumnConverter.class)
    @Column(nullable = false)
    private EnvironmentStatus status;

    @Embedded
    private Management management = Management.none();

    /** Its own check schedule, overriding its type's; null inherits the type's ({@link CheckSchedule}, as stored). */
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    private JsonNode checks;

    protected Environment() {}

    Environment(UUID orgId, UUID projectId, String slug, UUID envTypeId, Instant now) {
        super(now);
        this.orgId = orgId;
        this.projectId = projectId;
        this.slug = slug;
        this.envTypeId = envTypeId;
        this.status = EnvironmentStatus.ACTIVE;
    }

    public UUID orgId() {
        return orgId;
    }

    public UUID projectId() {
        return projectId;
    }

    public String slug() {
        return slug;
    }

    public UUID envTypeId() {
        return envTypeId;
    }

    public EnvironmentStatus status() {
        return status;
    }

    void changeType(UUID envTypeId, Instant now) {
        this.envTypeId = envTypeId;
        touch(now);
    }

    void moveTo(EnvironmentStatus next, Instant now) {
        if (!status.canMoveTo(next)) {
            throw new IllegalStateException("environment cannot go from " + status + " to " + next);
        }
        status = next;
        touch(now);
    }

    /** Its own check schedule; null when it follows its environment type's. */
    public CheckSchedule checks() {
        return CheckSchedule.fromJson(checks);
    }

    void scheduleChecks(CheckSchedule schedule) {
        this.checks = schedule == null ? null : schedule.toJson();
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
