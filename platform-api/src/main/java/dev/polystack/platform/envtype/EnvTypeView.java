package dev.polystack.platform.envtype;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.resourcetype.ReconcilePolicy;

import java.time.Instant;
import java.util.Map;

public record EnvTypeView(
        String id,
        String description,
        String managedBy,
        @JsonProperty("protected") boolean protect,
        CheckSchedule checks,
        Map<String, ReconcilePolicy> reconcile,
        ApprovalPolicy approval,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    static EnvTypeView of(EnvType type) {
        return new EnvTypeView(
                type.slug(),
                type.description(),
                type.management().managedBy(),
                type.management().isProtected(),
                type.checks(),
                type.reconcile(),
                type.approval(),
                type.createdAt(),
                type.updatedAt(),
                type.version());
    }
}
