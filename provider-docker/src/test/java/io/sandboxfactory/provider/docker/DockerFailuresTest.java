package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

class DockerFailuresTest {

    @Test
    void readsTheEnginesMessageFromAnHttpError() {
        NotFoundException notFound = new NotFoundException("Status 404: {\"message\":\"No such container: abc\"}\n");
        assertThat(DockerFailures.message(notFound)).isEqualTo("No such container: abc");
        assertThat(DockerFailures.isNotFound(notFound)).isTrue();
        assertThat(DockerFailures.isConflict(notFound)).isFalse();

        ConflictException conflict = new ConflictException(
                "Status 409: {\"message\":\"Conflict. The container name \\\"/sf-x\\\" is already in use\"}\n");
        assertThat(DockerFailures.message(conflict)).isEqualTo("Conflict. The container name \"/sf-x\" is already in use");
        assertThat(DockerFailures.isConflict(conflict)).isTrue();
    }

    @Test
    void readsTheRootCauseOfATransportFailure() {
        RuntimeException wrapped = new RuntimeException(new IOException("Connection refused"));
        assertThat(DockerFailures.message(wrapped)).isEqualTo("Connection refused");
        assertThat(DockerFailures.message(new IllegalStateException())).isEqualTo("IllegalStateException");
    }
}
