package dev.polystack.platform.state;

import dev.polystack.rules.ResourceIdentity;

import java.util.UUID;

/** The resource whose state a job may use, and whether its lease still lets it do so. */
public record StateAccess(UUID jobId, UUID environmentId, ResourceIdentity resource, boolean leaseLive) {}
