// Package slurmtest starts a real Slurm cluster on loopback for tests: one
// slurmctld and one slurmd per node on this machine, as root and without
// systemd, each node a slurmd started with -N (the facts behind it are
// those measured of Debian's Slurm 22.05). Authentication is munge's, as
// on a real cluster: a munged of the test's own (its key, socket and
// state in a temporary directory) that slurm.conf's AuthInfo points
// every daemon and command to.
package slurmtest

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Options shape a test cluster.
type Options struct {
	// Nodes is the node count (default 8): n1, n2, ….
	Nodes int
	// Features, when set, gives node i (from 1) its Slurm features, e.g.
	// the planner partition it belongs to.
	Features func(i int) string
	// Partition is the one Slurm partition's name (default "debug").
	Partition string
}

// Cluster is a running test cluster.
type Cluster struct {
	// Dir holds its configuration, state, logs and spool directories.
	Dir string
	// Conf is its slurm.conf; Env the environment its commands need
	// (SLURM_CONF, and a marker that the daemons, and the jobs submitted
	// with it, inherit, by which Stop finds the processes Slurm started
	// outside its daemons).
	Conf string
	Env  []string
	// Nodes are the node names; Partition the partition's.
	Nodes     []string
	Partition string
	// JobComp is the job completion log (sacct --completion reads it).
	JobComp string
	// MungeSocket is the socket of the cluster's munged.
	MungeSocket string

	marker  string
	daemons []*daemon
}

type daemon struct {
	name string
	cmd  *exec.Cmd
	done chan error
}

// binaries are the Slurm programs the tests run.
var binaries = []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol", "scancel", "sacct"}

// startTimeout bounds the wait for every node to be idle; stopTimeout the
// wait for a daemon to exit after SIGTERM before SIGKILL.
const (
	startTimeout = 60 * time.Second
	stopTimeout  = 10 * time.Second
)

// Start starts a cluster and stops it when the test ends (t.Cleanup). It
// skips the test unless it runs as root (Slurm's daemons need it) or
// when Slurm or munge is missing on a machine without apt-get; it fails
// when they are missing where make deps would install them (Debian's
// slurmctld, slurmd, slurm-client and munge).
func Start(t testing.TB, o Options) *Cluster {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("starting Slurm's daemons needs root")
	}
	for _, b := range binaries {
		if _, err := exec.LookPath(b); err != nil {
			if _, aptErr := exec.LookPath("apt-get"); aptErr != nil {
				t.Skipf("%s: not installed, and no apt-get to install Debian's slurmctld, slurmd, slurm-client and munge with", b)
			}
			t.Fatalf("%s: not installed: make deps installs Debian's slurmctld, slurmd, slurm-client and munge (%v)", b, err)
		}
	}
	if o.Nodes <= 0 {
		o.Nodes = 8
	}
	if o.Partition == "" {
		o.Partition = "debug"
	}
	dir := t.TempDir()
	ports, err := freePorts(o.Nodes + 1)
	if err != nil {
		t.Fatal(err)
	}
	// A socket's path must be short (108 bytes), a test's temporary
	// directory may not be: munge's has a short name of its own.
	mungeDir, err := os.MkdirTemp("", "munge")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(mungeDir) })
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), Partition: o.Partition,
		JobComp: filepath.Join(dir, "jobcomp.log"), MungeSocket: filepath.Join(mungeDir, "munge.socket.2"),
		marker: "PLANNER_SLURMTEST=" + dir}
	c.Env = []string{"SLURM_CONF=" + c.Conf, c.marker}
	for _, d := range []string{"state", "spool", "log", "out"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var conf strings.Builder
	fmt.Fprintf(&conf, `ClusterName=plannertest
SlurmctldHost=localhost
SlurmctldPort=%d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[4]s
CredType=cred/munge
StateSaveLocation=%[2]s/state
SlurmdSpoolDir=%[2]s/spool/%%n
SlurmctldPidFile=%[2]s/slurmctld.pid
SlurmdPidFile=%[2]s/slurmd-%%n.pid
SlurmctldLogFile=%[2]s/log/slurmctld.log
SlurmdLogFile=%[2]s/log/slurmd-%%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=%[3]s
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/linear
ReturnToService=2
SlurmdParameters=config_overrides
MailProg=/bin/true
KillWait=5
`, ports[0], dir, c.JobComp, c.MungeSocket)
	for i := 1; i <= o.Nodes; i++ {
		name := "n" + strconv.Itoa(i)
		c.Nodes = append(c.Nodes, name)
		fmt.Fprintf(&conf, "NodeName=%s NodeHostname=localhost NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000", name, ports[i])
		if o.Features != nil {
			if f := o.Features(i); f != "" {
				fmt.Fprintf(&conf, " Features=%s", f)
			}
		}
		conf.WriteString("\n")
	}
	fmt.Fprintf(&conf, "PartitionName=%s Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n", o.Partition)
	if err := os.WriteFile(c.Conf, []byte(conf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Stop(t) })
	// munge's key: 1 KiB of random bytes, readable by its owner only.
	key := make([]byte, 1024)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(mungeDir, "munge.key")
	if err := os.WriteFile(keyFile, key, 0o400); err != nil {
		t.Fatal(err)
	}
	// --force: munged refuses a socket in a directory that not everyone
	// can search, which a private temporary directory is.
	if err := c.startDaemon("munged", "--foreground", "--force", "--socket", c.MungeSocket, "--key-file", keyFile,
		"--pid-file", filepath.Join(mungeDir, "munged.pid"), "--seed-file", filepath.Join(mungeDir, "munged.seed"),
		"--log-file", filepath.Join(dir, "log", "munged.log")); err != nil {
		t.Fatal(err)
	}
	if err := waitFor(c.MungeSocket, startTimeout); err != nil {
		t.Fatalf("munged: %v; its log: %s", err, tail(filepath.Join(dir, "log", "munged.out")))
	}
	if err := c.startDaemon("slurmctld", "-D", "-i", "-f", c.Conf); err != nil {
		t.Fatal(err)
	}
	for _, n := range c.Nodes {
		if err := c.startDaemon("slurmd-"+n, "-D", "-N", n, "-f", c.Conf); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(startTimeout)
	for {
		out, err := c.Output("sinfo", "--noheader", "--Node", "--states", "idle", "--format", "%N")
		if err == nil && len(strings.Fields(out)) == o.Nodes {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the test cluster's %d nodes are not idle after %s (sinfo: %q, %v); logs in %s", o.Nodes, startTimeout, out, err, dir)
		}
		for _, d := range c.daemons {
			select {
			case err := <-d.done:
				t.Fatalf("%s exited at start: %v; its log: %s", d.name, err, tail(filepath.Join(dir, "log", d.name+".out")))
			default:
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return c
}

// startDaemon starts a daemon (slurmctld or slurmd-NODE) in the
// foreground, its output in log/NAME.out.
func (c *Cluster) startDaemon(name string, args ...string) error {
	prog := name
	if strings.HasPrefix(name, "slurmd-") {
		prog = "slurmd"
	}
	out, err := os.Create(filepath.Join(c.Dir, "log", name+".out"))
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.Command(prog, args...)
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", name, err)
	}
	d := &daemon{name: name, cmd: cmd, done: make(chan error, 1)}
	go func() { d.done <- cmd.Wait() }()
	c.daemons = append(c.daemons, d)
	return nil
}

// Command is a Slurm command of the cluster, with its environment.
func (c *Cluster) Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Dir = c.Dir
	return cmd
}

// Output runs a Slurm command and returns its standard output; an error
// carries its standard error.
func (c *Cluster) Output(name string, args ...string) (string, error) {
	cmd := c.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// Submit submits a batch job (sbatch --parsable, output to /dev/null
// unless args say otherwise) and returns its id.
func (c *Cluster) Submit(t testing.TB, args ...string) int64 {
	t.Helper()
	out, err := c.Output("sbatch", append([]string{"--parsable", "--output", "/dev/null"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	id, err := strconv.ParseInt(strings.TrimSpace(strings.Split(out, ";")[0]), 10, 64)
	if err != nil {
		t.Fatalf("sbatch printed %q, want a job id", out)
	}
	return id
}

// Stop cancels every job, stops the daemons by their PIDs (SIGTERM, then
// SIGKILL after stopTimeout) and waits for them, then kills the processes
// Slurm started outside them (slurmstepd and the jobs' processes, which
// are not the daemons' children) and waits until they are gone. It
// reports what it could not stop as test errors.
func (c *Cluster) Stop(t testing.TB) {
	if ids, err := c.Output("squeue", "--noheader", "--states", "all", "--format", "%A"); err == nil && strings.TrimSpace(ids) != "" {
		if _, err := c.Output("scancel", strings.Fields(ids)...); err != nil {
			t.Logf("stopping the test cluster: %v", err)
		}
		deadline := time.Now().Add(stopTimeout)
		for time.Now().Before(deadline) {
			out, err := c.Output("squeue", "--noheader", "--format", "%A")
			if err != nil || strings.TrimSpace(out) == "" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// The slurmd first, so that the controller sees no node vanish, and
	// munged last.
	for i := len(c.daemons) - 1; i >= 0; i-- {
		d := c.daemons[i]
		if d.cmd.Process == nil {
			continue
		}
		_ = d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(stopTimeout):
			_ = d.cmd.Process.Kill()
			<-d.done
			t.Logf("stopping the test cluster: %s (pid %d) ignored SIGTERM for %s and was killed", d.name, d.cmd.Process.Pid, stopTimeout)
		}
	}
	c.daemons = nil
	strays := c.strays()
	for _, pid := range strays {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	deadline := time.Now().Add(stopTimeout)
	for _, pid := range strays {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("stopping the test cluster: process %d of the test's Slurm did not exit after SIGKILL", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// strays are the live processes the test's Slurm started that are not
// its daemons: those that carry the cluster's marker in their environment
// (slurmstepd inherits the daemons', a job the submitter's), and those in
// the session of such a process (a job's processes share its step's).
func (c *Cluster) strays() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	mySession, _ := session(self)
	sid := map[int]int{}
	marked := map[int]bool{}
	sessions := map[int]bool{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		s, ok := session(pid)
		if !ok {
			continue
		}
		sid[pid] = s
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !slices.ContainsFunc(bytes.Split(env, []byte{0}), func(kv []byte) bool { return string(kv) == c.marker }) {
			continue
		}
		marked[pid] = true
		if s > 1 && s != mySession {
			sessions[s] = true
		}
	}
	var out []int
	for pid, s := range sid {
		if marked[pid] || sessions[s] {
			out = append(out, pid)
		}
	}
	slices.Sort(out)
	return out
}

// session is the session id of process pid (from /proc/PID/stat).
func session(pid int) (int, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	// pid (comm) state ppid pgrp session ...; comm may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 4 {
		return 0, false
	}
	s, err := strconv.Atoi(f[3])
	return s, err == nil
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z' && b[i+2] != 'X'
}

// waitFor waits until path exists.
func waitFor(path string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s does not exist after %s", path, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// freePorts returns n distinct free TCP ports of loopback.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		ls = append(ls, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports, nil
}

// tail is the end of a log file, for a failure message.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
