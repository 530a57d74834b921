package dev.polystack.platform.deployment;

/**
 * @param refreshOnly plan with {@code -refresh-only}: report only what changed outside Polystack, not what
 *                    applying the last configuration again would do (default false)
 */
public record CheckRequest(Boolean refreshOnly) {}
