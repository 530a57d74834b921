package dev.polystack.platform.webhook;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import java.util.List;

/**
 * @param url    where deliveries are POSTed: http or https, not inside the control plane's own networks
 * @param events the events to deliver: deployment.started, deployment.succeeded, deployment.failed, deployment.cancelled,
 *               issue.opened, issue.resolved, approval.needed, approval.given
 */
public record CreateWebhookRequest(
        @NotBlank @Size(max = 2048) String url,
        @NotEmpty @Size(max = 20) List<@NotNull String> events,
        @Size(max = 1000) String description) {}
