# The local provider's fork server: forks each command as the leader of a new process group, so the JVM
# spawns no process per command. Its one argument is a private directory (mode 0700) where it makes
# two FIFOs per command, <id>.o and <id>.e, that the command's stdout and stderr are opened on; the
# JVM reads them directly and removes them once open. Frames both ways are
# type (1 byte), id (u32), length (u32), payload.
#   in:  S id "cwd\0command\0NAME=value\0..."  start
#        K id ""  kill the command's group and process tree | Q 0 ""  kill everything and exit (in a boundary)
#   out: P id pid | F id message (not started) | X id "<exit code> <1 if its group still has members, else 0>"
#        (exit code 128 + signal when a signal ended the shell)
# It exits when its stdin ends (the JVM is gone), removing the FIFO directory. Commands die with
# their host: every command still running then ends with it, SIGTERM to its group, SIGKILL 1 s later.
use strict;
use warnings;
use POSIX ();

my $fifos = $ARGV[0];
# A process group of its own: a signal to the JVM's group (Ctrl-C at a terminal, a kill of the whole
# group) must not end this server with the JVM, since it ends the commands once the JVM is gone.
setpgrp(0, 0);
binmode STDIN;
binmode STDOUT;
$SIG{PIPE} = 'IGNORE';
pipe(my $wake_r, my $wake_w) or die "pipe: $!";
nonblocking($wake_r);
nonblocking($wake_w);
$SIG{CHLD} = sub { syswrite($wake_w, 'x') };

my %id_of_pid;
my %running;     # id => 1 while its shell runs
my $in = '';

sub nonblocking {
    my ($fh) = @_;
    my $flags = fcntl($fh, POSIX::F_GETFL(), 0) or die "fcntl: $!";
    fcntl($fh, POSIX::F_SETFL(), $flags | POSIX::O_NONBLOCK()) or die "fcntl: $!";
}

# The JVM is gone: every command it started and that still runs ends with it. The FIFO directory
# goes with the server: a JVM that died cannot remove it.
sub leave {
    my @groups = keys %id_of_pid;
    kill 'TERM', -$_ for @groups;
    for (1 .. 20) {
        1 while waitpid(-1, POSIX::WNOHANG()) > 0;    # a zombie leader would keep its group "alive"
        last unless grep { kill 0, -$_ } @groups;
        select(undef, undef, undef, 0.05);
    }
    kill 'KILL', -$_ for grep { kill 0, -$_ } @groups;
    unlink glob("$fifos/*");
    rmdir $fifos;
    POSIX::_exit(0);
}

sub send_frame {
    my ($type, $id, $payload) = @_;
    my $bytes = pack('a1 N N', $type, $id, length $payload) . $payload;
    while (length $bytes) {
        my $n = syswrite(STDOUT, $bytes);
        if (!defined $n) {
            next if $!{EINTR} || $!{EAGAIN};
            leave();    # the JVM is gone
        }
        substr($bytes, 0, $n) = '';
    }
}

sub redirect {
    my ($path, $flags, $to) = @_;
    my $fd = POSIX::open($path, $flags);
    POSIX::_exit(126) unless defined $fd;
    POSIX::dup2($fd, $to);
    POSIX::close($fd) unless $fd == $to;
}

sub start {
    my ($id, $payload) = @_;
    my ($cwd, $command, @env) = split /\0/, $payload, -1;
    my ($out, $err) = ("$fifos/$id.o", "$fifos/$id.e");
    unless (POSIX::mkfifo($out, 0600) && POSIX::mkfifo($err, 0600)) {
        send_frame('F', $id, "mkfifo in $fifos: $!");
        unlink $out, $err;
        return;
    }
    my $pid = fork();
    if (!defined $pid) {
        send_frame('F', $id, "fork: $!");
        unlink $out, $err;
        return;
    }
    if ($pid == 0) {
        $SIG{CHLD} = 'DEFAULT';
        $SIG{PIPE} = 'DEFAULT';
        # A process group of its own, not a session: a new session gets a scheduling group of its
        # own (sched_autogroup), which slowed a command's output to half the speed on a busy host.
        setpgrp(0, 0);
        # No controlling terminal either, as a new session would have none: a command that opens
        # /dev/tty fails at once instead of being stopped as a background job. 0x5422: TIOCNOTTY.
        if (open(my $tty, '+<', '/dev/tty')) {
            ioctl($tty, 0x5422, 0);
            close $tty;
        }
        # The FIFOs first, before anything that can fail: the JVM waits on their other ends. An
        # open waits for the JVM to open its end; a JVM killed before that never will, so an alarm
        # ends this child then (SIGALRM's default action) instead of leaving it blocked for good.
        $SIG{ALRM} = 'DEFAULT';
        alarm(60);
        redirect($out, POSIX::O_WRONLY(), 1);
        redirect($err, POSIX::O_WRONLY(), 2);
        alarm(0);
        redirect('/dev/null', POSIX::O_RDONLY(), 0);
        # Every other descriptor of this server is close-on-exec (perl sets it above $^F).
        unless (chdir $cwd) {
            syswrite(STDERR, "cannot change to directory $cwd: $!\n");
            POSIX::_exit(127);
        }
        %ENV = ();
        for my $pair (@env) {
            my ($name, $value) = split /=/, $pair, 2;
            $ENV{$name} = $value;
        }
        { no warnings 'exec'; exec { '/bin/sh' } '/bin/sh', '-c', $command; }
        syswrite(STDERR, "cannot run /bin/sh: $!\n");
        POSIX::_exit(127);
    }
    $id_of_pid{$pid} = $id;
    $running{$id} = 1;
    send_frame('P', $id, $pid);
}

sub reap {
    my ($all) = @_;
    while ((my $pid = waitpid(-1, $all ? 0 : POSIX::WNOHANG())) > 0) {
        my $status = $?;
        my $id = delete $id_of_pid{$pid};
        next unless defined $id;
        delete $running{$id};
        my $code = ($status & 127) ? 128 + ($status & 127) : $status >> 8;
        # An empty group can never fill again: the JVM then forgets it without reading /proc.
        my $members = kill(0, -$pid) ? 1 : 0;
        send_frame('X', $id, "$code $members");
    }
}

# Inside a session's boundary the pids are its pid namespace's, which the JVM cannot signal: it asks
# here. The tree is read before the kill, since the shell's orphans move to pid 1 once it dies.
sub kill_command {
    my ($id) = @_;
    my ($pid) = grep { $id_of_pid{$_} == $id } keys %id_of_pid;
    return unless defined $pid;
    my %children;
    for my $stat (glob '/proc/[0-9]*/stat') {
        open(my $fh, '<', $stat) or next;
        my $line = <$fh> // next;
        my ($child) = $stat =~ m{^/proc/(\d+)/};
        push @{$children{$1}}, $child if $line =~ /.*\)\s+\S+\s+(\d+)/;
    }
    my @tree;
    my @todo = ($pid);
    while (@todo) {
        my @found = @{$children{shift @todo} || []};
        push @tree, @found;
        push @todo, @found;
    }
    kill 'KILL', -$pid;
    kill 'KILL', @tree if @tree;
}

# Stop or destroy of an isolated session: every process of its pid namespace but its init dies,
# the commands' ends are reported, and the namespace goes with this server. Never on the host: there
# this server is not pid 2 (pid 1 is the boundary's init), and kill -1 would reach every process.
sub quit {
    return unless $$ == 2;
    kill 'KILL', -1;
    reap(1);
    unlink glob("$fifos/*");
    rmdir $fifos;
    POSIX::_exit(0);
}

sub requests {
    while (length($in) >= 9) {
        my ($type, $id, $length) = unpack('a1 N N', $in);
        last if length($in) < 9 + $length;
        my $payload = substr($in, 9, $length);
        substr($in, 0, 9 + $length) = '';
        start($id, $payload) if $type eq 'S';
        kill_command($id) if $type eq 'K';
        quit() if $type eq 'Q';
    }
}

while (1) {
    my $rin = '';
    vec($rin, 0, 1) = 1;
    vec($rin, fileno($wake_r), 1) = 1;
    # Perl runs a %SIG handler only at its next safe point: a SIGCHLD that arrives after the last one
    # before select() blocks waits there until select() returns, and its wake-up byte with it. So,
    # while commands run, select() returns at least every 50 ms, and such an exit is reaped then
    # instead of at the next request (never, for the last command).
    my $ready = select(my $rout = $rin, undef, undef, %running ? 0.05 : undef);
    if ($ready < 0) {
        next if $!{EINTR};
        die "select: $!";
    }
    if (vec($rout, fileno($wake_r), 1)) {
        sysread($wake_r, my $drain, 4096);
    }
    if (vec($rout, 0, 1)) {
        my $n = sysread(STDIN, $in, 65536, length $in);
        leave() if defined $n && $n == 0;
        requests() if $n;
    }
    reap();
}
