package dev.polystack.platform.webhook;

import java.util.List;

/** The events a subscription can ask for. {@code ping} is sent once when a subscription is made, whatever it asked for. */
public final class WebhookEvent {

    public static final String PING = "ping";
    public static final String DEPLOYMENT_STARTED = "deployment.started";
    public static final String DEPLOYMENT_SUCCEEDED = "deployment.succeeded";
    public static final String DEPLOYMENT_FAILED = "deployment.failed";
    public static final String DEPLOYMENT_CANCELLED = "deployment.cancelled";
    public static final String ISSUE_OPENED = "issue.opened";
    public static final String ISSUE_RESOLVED = "issue.resolved";
    public static final String APPROVAL_NEEDED = "approval.needed";
    public static final String APPROVAL_GIVEN = "approval.given";

    public static final List<String> ALL = List.of(
            DEPLOYMENT_STARTED,
            DEPLOYMENT_SUCCEEDED,
            DEPLOYMENT_FAILED,
            DEPLOYMENT_CANCELLED,
            ISSUE_OPENED,
            ISSUE_RESOLVED,
            APPROVAL_NEEDED,
            APPROVAL_GIVEN);

    private WebhookEvent() {}
}
