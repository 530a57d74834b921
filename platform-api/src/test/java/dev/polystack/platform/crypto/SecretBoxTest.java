package dev.polystack.platform.crypto;

import org.junit.jupiter.api.Test;

import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Values sealed and opened in any order, on any thread, after any failure: each thread reuses one cipher. */
class SecretBoxTest {

    private static SecretKeySpec key(int seed) {
        byte[] bytes = new byte[32];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (seed * 31 + i);
        }
        return new SecretKeySpec(bytes, "AES");
    }

    private final SecretBox box = new SecretBox(2, Map.of(1, key(1), 2, key(2)));

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aThreadSealsAndOpensInAnyOrderAndAfterAFailedOpen() {
        byte[] first = box.seal(utf8("first secret"), "row-1");
        byte[] second = box.seal(utf8("second secret"), "row-2");
        assertThat(first).isNotEqualTo(second);
        assertThat(box.open(second, "row-2")).isEqualTo(utf8("second secret"));
        // a value moved to another row, and a tampered one, fail; the thread's cipher works on afterwards
        assertThatThrownBy(() -> box.open(first, "row-2")).hasMessageContaining("could not be opened");
        byte[] tampered = first.clone();
        tampered[tampered.length - 1] ^= 1;
        assertThatThrownBy(() -> box.open(tampered, "row-1")).hasMessageContaining("could not be opened");
        assertThat(box.open(first, "row-1")).isEqualTo(utf8("first secret"));
        byte[] again = box.seal(utf8("first secret"), "row-1");
        assertThat(again).isNotEqualTo(first);
        assertThat(box.open(again, "row-1")).isEqualTo(utf8("first secret"));
    }

    @Test
    void aValueSealedWithAnOlderKeyOpensWithABoxWhoseCurrentKeyIsNewer() {
        SecretBox old = new SecretBox(1, Map.of(1, key(1)));
        byte[] sealed = old.seal(utf8("kept"), "row");
        assertThat(box.isStale(sealed)).isTrue();
        assertThat(box.open(sealed, "row")).isEqualTo(utf8("kept"));
        assertThat(box.isStale(box.seal(utf8("kept"), "row"))).isFalse();
    }

    @Test
    void threadsSealAndOpenAtOnce() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(threads.submit(() -> {
                    int opened = 0;
                    for (int i = 0; i < 500; i++) {
                        String value = "value " + thread + "/" + i;
                        byte[] sealed = box.seal(utf8(value), "row-" + i);
                        assertThat(box.open(sealed, "row-" + i)).isEqualTo(utf8(value));
                        opened++;
                    }
                    return opened;
                }));
            }
            for (Future<Integer> each : done) {
                assertThat(each.get()).isEqualTo(500);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
