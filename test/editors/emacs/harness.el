;;; harness.el --- Drives Emacs (batch, with init.el) as a user would  -*- lexical-binding: t -*-
;; Opens $PSCONFIG_TEMPLATE, waits for the server's diagnostics in flymake, runs the count lens of the task whose
;; group exists (pSConfig's agent rejects the whole template while the other task's group is misspelt), applies the
;; "Change to" quick fix as eglot's code action menu does, waits for the fixed version's diagnostics, then asks for
;; that version's code lenses (eglot draws none: it has no code lens support) and runs each one's command with
;; `eglot-execute-command', as an eglot user runs a server command. Writes what it saw to $PSCONFIG_RESULT as JSON,
;; read by test/editors/emacs.test.ts.
(require 'json)
(require 'cl-lib)

(defvar harness-out (list :messages [] :lenses []))

(defun harness-wait (what seconds predicate)
  "Run the event loop until PREDICATE holds, or fail naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) seconds)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline) (error "timed out waiting for %s" what))
      (accept-process-output nil 0.05))))

(defun harness-messages ()
  (with-current-buffer (messages-buffer) (buffer-substring-no-properties (point-min) (point-max))))

(defun harness-lenses (server)
  "The code lenses of the current buffer's version, each resolved (when listed without its command)."
  (cl-loop for lens across (jsonrpc-request server :textDocument/codeLens
                                            (list :textDocument (eglot--TextDocumentIdentifier)))
           collect (if (plist-get lens :command) lens (jsonrpc-request server :codeLens/resolve lens))))

(defun harness-task-of (lens)
  "The task a count lens counts (its Show Tasks command's argument), or nil for another lens."
  (let ((command (plist-get lens :command)))
    (and (equal (plist-get command :command) "psconfig.server.showTasks")
         (plist-get (aref (plist-get command :arguments) 0) :task))))

(defun harness-unknown-group-p (diagnostic)
  (string-match-p "\\[psconfig/unknown-group\\]" (flymake-diagnostic-text diagnostic)))

(defun harness-run-lens (server lens)
  "Run LENS's command as `eglot-execute-command' does; what the server said, and the file it pointed to."
  (let* ((command (plist-get lens :command))
         (before (length (harness-messages)))
         (result (eglot-execute-command server (plist-get command :command) (plist-get command :arguments))))
    (harness-wait "the lens message" 60 (lambda () (> (length (harness-messages)) before)))
    (let* ((target (plist-get result :target))
           (file (and target (string-prefix-p "file://" target) (eglot--uri-to-path target))))
      (list :title (plist-get command :title)
            :command (plist-get command :command)
            :shown (plist-get result :shown)
            :message (plist-get result :message)
            :logged (substring (harness-messages) before)
            :text (if (and file (file-readable-p file))
                      (with-temp-buffer (insert-file-contents file) (buffer-string))
                    nil)))))

(defun harness-run ()
  (find-file (getenv "PSCONFIG_TEMPLATE"))
  ;; eglot-ensure connects once the command that opened the file has finished: the command loop's post-command-hook.
  (run-hooks 'post-command-hook)
  (harness-wait "eglot to connect" 60 (lambda () (eglot-current-server)))
  (harness-wait "diagnostics" 60 (lambda () (flymake-diagnostics)))
  (setq harness-out
        (plist-put harness-out :diagnostics
                   (vconcat (mapcar (lambda (d)
                                      (list :line (line-number-at-pos (flymake-diagnostic-beg d))
                                            :text (flymake-diagnostic-text d)))
                                    (flymake-diagnostics)))))
  (let ((server (eglot-current-server)))
    ;; While the group is misspelt: what the count lens of the other task, whose group exists, says.
    (let ((count (cl-find "throughput" (harness-lenses server) :key #'harness-task-of :test #'equal)))
      (unless count (error "no count lens on the throughput task"))
      (setq harness-out (plist-put harness-out :misspeltCount (harness-run-lens server count))))
    ;; The quick fix: the code actions of the misspelt name's diagnostic, and the chosen one's edit applied.
    (goto-char (point-min))
    (search-forward "\"mesh-grop\"")
    (let* ((beg (match-beginning 0))
           (before (buffer-string))
           (actions (eglot-code-actions beg (match-end 0) "quickfix"))
           (change (cl-find "Change to \"mesh-group\"" actions
                            :key (lambda (a) (plist-get a :title)) :test #'equal)))
      (unless change (error "no Change to action among %S" (mapcar (lambda (a) (plist-get a :title)) actions)))
      (eglot--apply-workspace-edit (plist-get change :edit))
      (setq harness-out (plist-put harness-out :before before))
      (setq harness-out (plist-put harness-out :after (buffer-string))))
    ;; The edit reaches the server as eglot sends it once Emacs is idle (an idle timer batch Emacs does not run), and
    ;; the server's diagnostics of the new version (eglot--diagnostics: every publishDiagnostics) no longer name the
    ;; group. The lenses are then asked for that version: both tasks expand.
    (unless (cl-some #'harness-unknown-group-p eglot--diagnostics) (error "no unknown-group diagnostic before the fix"))
    (eglot--signal-textDocument/didChange)
    (harness-wait "the fixed template's diagnostics" 60
                  (lambda () (not (cl-some #'harness-unknown-group-p eglot--diagnostics))))
    (setq harness-out (plist-put harness-out :lenses
                                 (vconcat (mapcar (lambda (lens) (harness-run-lens server lens))
                                                  (harness-lenses server)))))))

(condition-case err
    (harness-run)
  (error (setq harness-out (plist-put harness-out :error (error-message-string err)))))
(setq harness-out (plist-put harness-out :version emacs-version))
(with-temp-file (getenv "PSCONFIG_RESULT")
  (let ((json-encoding-pretty-print nil)) (insert (json-encode harness-out))))
(kill-emacs 0)
;;; harness.el ends here
