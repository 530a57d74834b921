package dev.polystack.platform.deployment.model;

/** A status change its state machine does not allow; its message names the object and both statuses. */
public final class IllegalTransitionException extends IllegalStateException {

    IllegalTransitionException(String what, String from, String to) {
        super(what + " cannot go from " + from + " to " + to);
    }
}
