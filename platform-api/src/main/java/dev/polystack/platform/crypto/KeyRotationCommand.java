package dev.polystack.platform.crypto;

import io.quarkus.runtime.QuarkusApplication;
import jakarta.inject.Inject;

/** {@code java -jar quarkus-run.jar rotate-keys}: re-encrypts everything under the current key, then exits. */
public class KeyRotationCommand implements QuarkusApplication {

    @Inject
    KeyRotation rotation;

    @Override
    public int run(String... args) {
        long count = rotation.rotate();
        System.out.println("Re-encrypted " + count + " value(s) under key " + "id " + rotation.currentKeyId() + ".");
        return 0;
    }
}
