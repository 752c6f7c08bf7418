package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.core.internal.gateway.GitGateway;
import io.sandboxfactory.core.internal.git.GitCredentials;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionRetiredException;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.StartMode;
import jakarta.inject.Inject;

import java.util.Objects;
import java.util.Optional;

/**
 * The factory's sessions as the host reaches them: opens go through the {@link OpenPipeline}; an
 * open that a retirement overtakes fails with {@link SessionRetiredException} instead of returning
 * a live sandbox. Handles revive a dead sandbox through the same pipeline (see {@link
 * SessionHandle#executeCommand}).
 */
public final class SessionOpener implements AutoCloseable {

    private final OpenPipeline pipeline;
    private final SessionMemo memo;
    private final SessionRevival revival;
    private final GuardedStart starts;
    private final SessionServices services;
    private final SandboxInstances instances;
    private final GitGateway gateway;

    @Inject
    SessionOpener(OpenPipeline pipeline, SessionMemo memo, SessionRevival revival, GuardedStart starts, SessionServices services,
                  SandboxInstances instances, GitGateway gateway) {
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.instances = Objects.requireNonNull(instances, "instances");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.memo = Objects.requireNonNull(memo, "memo");
        this.revival = Objects.requireNonNull(revival, "revival");
        this.starts = Objects.requireNonNull(starts, "starts");
        this.services = Objects.requireNonNull(services, "services");
    }

    /** Opens {@code spec}'s session and starts it as its start mode says. */
    public SessionHandle open(SessionSpec spec) {
        Objects.requireNonNull(spec, "spec");
        return pipeline.open(spec, spec.useTemplates());
    }

    /**
     * The sandbox of {@code ctx.sessionId()}: the memo's instance when this process holds one,
     * otherwise a new one from the provider (created, not started).
     */
    public MastraSandbox<?> sandbox(FactorySandboxContext ctx) {
        return instances.forContext(ctx);
    }

    /** The open session {@code sessionId} if this process holds it; never constructs or starts anything. */
    public Optional<SessionHandle> session(String sessionId) {
        return memo.peek(sessionId).map(entry -> (SessionHandle) new OpenSessionHandle(entry, StartMode.LAZY, revival, starts,
                services.activity(), services.journal()));
    }

    /**
     * Gives the session's later git commands (a {@code git fetch} or {@code push} in the sandbox) a new
     * token: the Git gateway's, or (with {@code repository.exposeToken}) the one in the session's
     * environment overlay. The session must be open here.
     */
    public void refreshToken(String sessionId, String token) {
        Objects.requireNonNull(token, "token");
        if (token.isBlank()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "The new token for session '" + sessionId + "' is blank; pass a real token.");
        }
        SessionEntry entry = memo.peek(sessionId).orElseThrow(() -> new SandboxException(StandardErrorCode.SESSION_NOT_OPEN,
                "Session '" + sessionId + "' is not open in this factory; open it before refreshing its token."));
        if (gateway.refreshToken(sessionId, token)) {
            return;
        }
        entry.sandbox().setEnv(env -> {
            env.put(GitCredentials.TOKEN_VARIABLE, token);
            return env;
        });
    }

    /** Stops background starts that have not begun; running ones finish. */
    @Override
    public void close() {
        pipeline.stopBackgroundStarts();
    }
}
