package dev.polystack.runner;

import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;
import dev.polystack.runner.protocol.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a Kubernetes job pod runs: the tofu steps on a payload, lines masked on stdout, the sealed result last. */
class PodExecutionTest {

    private static final String PASSWORD = "state-password-0123456789";

    @TempDir
    Path dir;

    @Test
    void runsTheStepsPrintsMaskedLinesAndEndsWithTheSealedResult() throws Exception {
        Path fixtures = Files.createDirectories(dir.resolve("fixtures"));
        for (String name : List.of(
                "apply-json-with-outputs__plan.jsonl",
                "apply-json-with-outputs__apply.jsonl",
                "modules.plan.json",
                "modules.show.json",
                "output_json_all.json")) {
            try (InputStream in = getClass().getResourceAsStream("/tofu-fixtures/" + name)) {
                Files.copy(in, fixtures.resolve(name));
            }
        }
        // a tofu that answers each command with a recorded output, and prints the state password (which must be masked)
        Path tofu = dir.resolve("tofu");
        Files.writeString(tofu, """
                #!/bin/bash
                F=%s
                case "$1" in
                  init) echo "Initializing the backend..." ;;
                  plan) cat $F/apply-json-with-outputs__plan.jsonl ;;
                  show) if [ -n "$3" ]; then cat $F/modules.plan.json; else cat $F/modules.show.json; fi ;;
                  apply) cat $F/apply-json-with-outputs__apply.jsonl; echo "backend password is $TF_HTTP_PASSWORD" ;;
                  output) cat $F/output_json_all.json ;;
                esac
                """.formatted(fixtures));
        tofu.toFile().setExecutable(true);
        String key = SealedResult.newKey();
        ClaimedJob job = ControlPlane.JSON.readValue(
                """
                {"job_id": "%s", "deployment_id": "%s", "attempt": 1, "operation": "apply",
                 "resource": {"type": "thing", "class": "default", "id": "app.a"},
                 "environment": {"org": "acme", "project": "shop", "env": "prod", "env_type": "production"},
                 "module": {"id": "thing", "version": 1, "source": "inline", "code": "output \\"foo\\" { value = 1 }"},
                 "inputs": {"name": "prod-app.a"}, "sensitive_inputs": [], "providers": [], "outputs": ["foo"],
                 "state": {"address": "http://cp/s", "lock_address": "http://cp/l", "unlock_address": "http://cp/u",
                           "username": "job", "password": "%s"},
                 "lease_seconds": 60, "heartbeat_seconds": 15}""".formatted(UUID.randomUUID(), UUID.randomUUID(), PASSWORD), ClaimedJob.class);
        Path payload = dir.resolve("payload.json");
        ControlPlane.JSON.writeValue(payload.toFile(), new PodExecution.Payload(job, Map.of(), null, key));

        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            exit = PodExecution.execute(List.of(
                    "--payload=" + payload,
                    "--work-dir=" + dir.resolve("work"),
                    "--plugin-cache-dir=" + dir.resolve("plugins"),
                    "--tofu=" + tofu));
        } finally {
            System.setOut(original);
        }
        assertThat(exit).isZero();
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).contains("Initializing the backend...", "backend password is ***", "job succeeded");
        assertThat(String.join("\n", lines)).doesNotContain(PASSWORD);
        String last = lines.get(lines.size() - 1);
        assertThat(last).startsWith(PodExecution.RESULT_PREFIX);
        JobResult result = ControlPlane.JSON.readValue(
                SealedResult.open(last.substring(PodExecution.RESULT_PREFIX.length()), key), JobResult.class);
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.outputs()).containsKeys("bar", "baz", "foo", "foobar");
        assertThat(result.resources()).isNotEmpty();
        assertThat(dir.resolve("work")).isEmptyDirectory();
    }

    @Test
    void aSealedResultOpensOnlyWithItsKeyAndUnchanged() throws Exception {
        String key = SealedResult.newKey();
        String sealed = SealedResult.seal("{\"status\":\"succeeded\"}".getBytes(StandardCharsets.UTF_8), key);
        assertThat(new String(SealedResult.open(sealed, key), StandardCharsets.UTF_8))
                .isEqualTo("{\"status\":\"succeeded\"}");
        assertThatThrownBy(() -> SealedResult.open(sealed, SealedResult.newKey()))
                .isInstanceOf(GeneralSecurityException.class);
        char[] changed = sealed.toCharArray();
        changed[20] = changed[20] == 'A' ? 'B' : 'A';
        assertThatThrownBy(() -> SealedResult.open(new String(changed), key))
                .isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> SealedResult.open("not base64!", key)).isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void kubernetesSettingsAreCheckedAtStart() {
        List<String> base = List.of("--url=http://cp", "--org=acme", "--runner=r1");
        assertThatThrownBy(() ->
                        AgentConfig.load(concat(base, "--executor=kubernetes-job", "--job-namespace=ns"), Map.of()))
                .hasMessageContaining("`job-image` is not set");
        assertThatThrownBy(() -> AgentConfig.load(concat(base, "--job-image=x"), Map.of()))
                .hasMessageContaining("`job-image` is a setting of executor=kubernetes-job");
        assertThatThrownBy(() -> AgentConfig.load(concat(base, "--executor=docker"), Map.of()))
                .hasMessageContaining("must be process or kubernetes-job");
        AgentConfig config = AgentConfig.load(
                concat(base, "--executor=kubernetes-job", "--job-namespace=ns", "--job-image=img"), Map.of());
        assertThat(config.kubernetesJobs()).isTrue();
        assertThat(config.kubernetes().startTimeout().toMinutes()).isEqualTo(10);
    }

    private static List<String> concat(List<String> base, String... more) {
        return java.util.stream.Stream.concat(base.stream(), java.util.Arrays.stream(more))
                .toList();
    }
}
