@echo off
rem `mnemo` for an installed desktop app on Windows (electron-builder.yml extraResources copies it to <resources>\bin):
rem the terminal host's bundle run by the app's own runtime as plain Node. See scripts/desktop-shims/mnemo. Untested:
rem no test runs Windows or a packaged app.
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Mnemo.exe" "%~dp0..\app.asar\out\cli\main.js" %*
rem Hand the command's exit status (0 done, 1 failed, 2 usage) to the caller, as VS Code's code.cmd does.
if %ERRORLEVEL% neq 0 exit /b %ERRORLEVEL%
endlocal
