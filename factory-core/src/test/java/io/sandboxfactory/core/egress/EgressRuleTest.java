package io.sandboxfactory.core.egress;

import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.error.StandardErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EgressRuleTest {

    @ParameterizedTest
    @CsvSource({
            "api.example.com,api.example.com,443,true",
            "api.example.com,API.Example.COM.,80,true",
            "api.example.com,example.com,443,false",
            "api.example.com,x.api.example.com,443,false",
            "*.example.com,api.example.com,443,true",
            "*.example.com,a.b.example.com,8080,true",
            "*.example.com,example.com,443,false",
            "*.example.com,badexample.com,443,false",
            "api.example.com:443,api.example.com,443,true",
            "api.example.com:443,api.example.com,80,false",
            "*.example.com:8443,x.example.com,8443,true",
            "*.example.com:8443,x.example.com,443,false",
            "127.0.0.5,127.0.0.5,80,true",
    })
    void matchesByNameAndPort(String pattern, String host, int port, boolean matches) {
        assertThat(EgressRule.parse("allow", pattern).matches(host, port)).isEqualTo(matches);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "api example.com", "https://api.example.com", "api.example.com/path", "api.example.com:0",
            "api.example.com:65536", "api.example.com:", "api.example.com:x", "*", "*.", "a.*.com", "*example.com", "**.example.com",
            "example..com", "-bad.example.com", "api.example.com:443:1"})
    void rejectsInvalidPatternsNamingThem(String pattern) {
        assertThatThrownBy(() -> EgressRule.parse("allow[0]", pattern))
                .isInstanceOfSatisfying(InvalidConfigValueException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                .hasMessageStartingWith("allow[0] '" + pattern + "' is invalid;");
    }

    @Test
    void aDenyWinsOverAWiderAllowAndAnAllowLiftsTheSameDeny() {
        EgressPolicy policy = new EgressPolicy(EgressMode.ALLOWLIST, List.of(EgressRule.parse("allow", "*.example.com")), List.of())
                .denying(EgressRule.parse("deny", "gist.example.com"));
        assertThat(policy.decide("api.example.com", 443)).isEqualTo(new EgressDecision(true, "allow *.example.com"));
        assertThat(policy.decide("gist.example.com", 443)).isEqualTo(new EgressDecision(false, "deny gist.example.com"));
        assertThat(policy.decide("other.test", 443)).isEqualTo(new EgressDecision(false, "no allow rule matches"));

        EgressPolicy lifted = policy.allowing(EgressRule.parse("allow", "gist.example.com"));
        assertThat(lifted.deny()).isEmpty();
        assertThat(lifted.decide("gist.example.com", 443).allowed()).isTrue();
        assertThat(lifted.denying(EgressRule.parse("deny", "gist.example.com")).allow()).extracting(EgressRule::text)
                .containsExactly("*.example.com");
    }

    @Test
    void modeNoneRefusesEverythingAndOpenAllowsEverything() {
        List<EgressRule> allow = List.of(EgressRule.parse("allow", "api.example.com"));
        assertThat(new EgressPolicy(EgressMode.NONE, allow, List.of()).decide("api.example.com", 443).allowed()).isFalse();
        assertThat(new EgressPolicy(EgressMode.OPEN, List.of(), List.of()).decide("any.example", 443).allowed()).isTrue();
    }

    @Test
    void anUnknownModeIsInvalidConfigNamingIt() {
        assertThatThrownBy(() -> EgressMode.parse("mode", "closed"))
                .isInstanceOf(InvalidConfigValueException.class)
                .hasMessage("mode 'closed' is invalid; it must be one of none, allowlist, open.");
        assertThat(EgressMode.parse("mode", "allowlist")).isEqualTo(EgressMode.ALLOWLIST);
    }
}
