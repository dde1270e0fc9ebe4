; Inno Setup 6 script: ShipSheet's Windows installer (https://jrsoftware.org/isinfo.php).
; Made by the release workflow (.github/workflows/release.yml) through
;   python packaging\ci.py build
; which runs PyInstaller (packaging\shipsheet.spec) and then
;   ISCC /DAssociation=dist\shipsheet-association.iss /DSourceDir=dist\shipsheet /Odist shipsheet.iss
; The spec writes the association file: version, executables, the .shipsheet file type.
; Installs for the current user (no administrator needed); a per-machine install is offered.

#ifndef Association
  #define Association AddBackslash(SourcePath) + "..\..\dist\shipsheet-association.iss"
#endif
#include Association
#ifndef SourceDir
  #define SourceDir AddBackslash(SourcePath) + "..\..\dist\shipsheet"
#endif

[Setup]
AppId={{6C0C9E55-2B1E-4C4B-9F52-5D8C3B7E2A41}
AppName=ShipSheet
AppVersion={#AppVersion}
AppPublisher=ShipSheet developers
DefaultDirName={autopf}\ShipSheet
DefaultGroupName=ShipSheet
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
OutputBaseFilename=ShipSheet-{#AppVersion}-setup
SetupIconFile=..\icons\shipsheet.ico
UninstallDisplayIcon={app}\{#GuiExe}
Compression=lzma2
SolidCompression=yes
WizardStyle=modern
MinVersion=10.0

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "association"; Description: "Open {#FileExt} files with ShipSheet"; GroupDescription: "File types:"

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\ShipSheet"; Filename: "{app}\{#GuiExe}"
Name: "{autodesktop}\ShipSheet"; Filename: "{app}\{#GuiExe}"; Tasks: desktopicon

[Registry]
; The .shipsheet file type (HKA: the current user's classes, or the machine's when installed for all).
Root: HKA; Subkey: "Software\Classes\{#FileExt}"; ValueType: string; ValueName: ""; ValueData: "{#FileProgId}"; Flags: uninsdeletevalue; Tasks: association
Root: HKA; Subkey: "Software\Classes\{#FileExt}"; ValueType: string; ValueName: "Content Type"; ValueData: "{#FileMime}"; Flags: uninsdeletevalue; Tasks: association
Root: HKA; Subkey: "Software\Classes\{#FileExt}\OpenWithProgids"; ValueType: string; ValueName: "{#FileProgId}"; ValueData: ""; Flags: uninsdeletevalue; Tasks: association
Root: HKA; Subkey: "Software\Classes\{#FileProgId}"; ValueType: string; ValueName: ""; ValueData: "{#FileDescription}"; Flags: uninsdeletekey; Tasks: association
Root: HKA; Subkey: "Software\Classes\{#FileProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#GuiExe},0"; Tasks: association
Root: HKA; Subkey: "Software\Classes\{#FileProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#GuiExe}"" ""%1"""; Tasks: association
Root: HKA; Subkey: "Software\Classes\Applications\{#GuiExe}\SupportedTypes"; ValueType: string; ValueName: "{#FileExt}"; ValueData: ""; Flags: uninsdeletekey

[Run]
Filename: "{app}\{#GuiExe}"; Description: "{cm:LaunchProgram,ShipSheet}"; Flags: nowait postinstall skipifsilent
