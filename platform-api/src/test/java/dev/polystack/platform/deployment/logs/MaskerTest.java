package dev.polystack.platform.deployment.logs;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MaskerTest {

    @Test
    void aSecretIsMaskedWholeAtEitherEdgeAndInTheMiddle() {
        Masker masker = Masker.of(List.of("s3cret-value"));
        assertThat(masker.mask("s3cret-value")).isEqualTo("***");
        assertThat(masker.mask("s3cret-value then s3cret-value")).isEqualTo("*** then ***");
        assertThat(masker.mask("token=s3cret-value;")).isEqualTo("token=***;");
        assertThat(masker.mask("nothing here")).isEqualTo("nothing here");
    }

    @Test
    void aLongerSecretContainingAShorterOneIsMaskedWhole() {
        Masker masker = Masker.of(List.of("abcd", "abcd-efgh-ijkl"));
        assertThat(masker.mask("key abcd-efgh-ijkl and abcd")).isEqualTo("key *** and ***");
    }

    @Test
    void valuesShorterThanFourCharactersAreNotMasked() {
        Masker masker = Masker.of(List.of("123", "", "abcd"));
        assertThat(masker.mask("pin 123, code abcd")).isEqualTo("pin 123, code ***");
        assertThat(Masker.of(List.of("ab")).isEmpty()).isTrue();
    }

    @Test
    void aSecretIsMaskedAsItAppearsInsideAJsonString() {
        Masker masker = Masker.of(List.of("pa\"ss\\word"));
        assertThat(masker.mask("{\"@message\":\"password is pa\\\"ss\\\\word\"}"))
                .isEqualTo("{\"@message\":\"password is ***\"}");
    }

    @Test
    void eachLineOfAMultiLineSecretIsMaskedOnItsOwn() {
        String key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
        Masker masker = Masker.of(List.of(key));
        assertThat(masker.mask("  MIIEvQIBADANBgkqhkiG9w0BAQEFAASC")).isEqualTo("  ***");
        assertThat(masker.mask("key: " + key.replace("\n", "\\n"))).isEqualTo("key: ***");
    }

    @Test
    void levelsAreOpenTofusOrInfo() {
        assertThat(Masker.level("ERROR")).isEqualTo("error");
        assertThat(Masker.level("warning")).isEqualTo("warn");
        assertThat(Masker.level("<b>loud</b>")).isEqualTo("info");
        assertThat(Masker.level(null)).isEqualTo("info");
    }
}
