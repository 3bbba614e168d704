;;; init.el --- A minimal Emacs configuration for the pSConfig language server, with eglot  -*- lexical-binding: t -*-
;; eglot is built into Emacs 29 and later; Debian 12's Emacs 28 gets it from the elpa-eglot package. The tests start
;; Emacs (batch) with this file.  PSCONFIG_LANGUAGE_SERVER: the binary (default: psconfig-language-server on PATH).
(require 'eglot)

;; Templates are JSON: a mode of their own (derived from js-mode, which every Emacs has; js-json-mode on 29+), so
;; eglot starts the pSConfig server for them and not for every JSON file.
(define-derived-mode psconfig-mode js-mode "pSConfig" "Major mode for perfSONAR pSConfig templates.")
(add-to-list 'auto-mode-alist '("\\.psconfig\\.json\\'" . psconfig-mode))

(add-to-list 'eglot-server-programs
             `(psconfig-mode . (,(or (getenv "PSCONFIG_LANGUAGE_SERVER") "psconfig-language-server") "--stdio")))
;; Answered to the server's workspace/configuration (section `psconfig`): jq on PATH.
(setq-default eglot-workspace-configuration '(:psconfig (:jq (:path "jq"))))
(add-hook 'psconfig-mode-hook #'eglot-ensure)
;;; init.el ends here
