package dev.polystack.cli;

import picocli.CommandLine.Option;

import java.time.Duration;

/** {@code --wait} and {@code --timeout}, for commands that start a deployment. */
class WaitOptions {

    @Option(names = "--wait", description = "Wait until the deployment ends; the exit code says how it went.")
    boolean wait;

    @Option(
            names = "--timeout",
            defaultValue = "30m",
            description = "How long --wait waits (default: ${DEFAULT-VALUE}).")
    String timeout;

    Duration timeout() {
        return Progress.duration(timeout);
    }
}
